"""``python -m ksched_edu``: see :mod:`ksched_edu.cli`."""
import sys

from .cli import main

sys.exit(main())
