"""``python -m belote_ref.cli``: the ``belote-ref`` command line."""

import sys

from belote_ref.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
