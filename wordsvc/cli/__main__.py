"""``python -m wordsvc.cli``: the same as the ``wordsvc`` command."""

import sys

from . import main

sys.exit(main())
