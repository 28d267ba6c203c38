"""Layer 4, report: writers that only read a model and its analysis (the
workbook, the memo with its charts, number formatting, output sets)."""
