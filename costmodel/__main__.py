"""``python -m costmodel``: the same as the ``costmodel`` command."""

from costmodel.cli import main

main()
