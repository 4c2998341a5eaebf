"""``python -m wink_decl``: the ``wink-decl`` command.

The package took the working folder off ``sys.path`` when Python imported it for ``-m``,
before this module and anything it imports (``wink_decl._launch``).
"""

from wink_decl.cli import main

raise SystemExit(main())
