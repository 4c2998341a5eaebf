"""``python -m wink_decl``: the ``wink-decl`` command."""

from wink_decl.cli import main

raise SystemExit(main())
