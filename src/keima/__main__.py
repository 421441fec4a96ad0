import sys

from keima.cli import main

sys.exit(main())
