"""Android entry point (buildozer's ``main.py``): the real API, phone GPS."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from driver_app.__main__ import main  # noqa: E402

if __name__ == "__main__":
    main([])
