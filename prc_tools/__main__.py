"""`python -m prc_tools ...`: the `prc-tools` command, for a Python without the script
on PATH (and for `python -X importtime -m prc_tools info FILE`)."""

import sys

from prc_tools.cli import main

sys.exit(main())
