"""`python -m companion.publish DIR` (the same as `companion publish DIR`)."""

import sys

from companion.publish import main

if __name__ == "__main__":
    sys.exit(main())
