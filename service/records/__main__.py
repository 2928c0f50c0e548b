"""``python -m service.records import|replay|export FILE``: see ``service/records/cli.py``."""
import sys

from .cli import main

sys.exit(main())
