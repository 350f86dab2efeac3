"""``python -m sliders.cli``: the ``sliders`` command."""

import sys

from sliders.cli import main

sys.exit(main())
