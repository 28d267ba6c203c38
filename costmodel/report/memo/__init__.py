"""The HTML investment memo in English and Chinese."""
