"""The investor workbook (live formulas, cached engine values)."""
