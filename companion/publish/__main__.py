"""`python -m companion.publish DIR` (the same as `companion publish DIR`)."""

import sys

from companion.publish import main

sys.exit(main())
