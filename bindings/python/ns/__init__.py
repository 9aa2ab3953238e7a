from . import _ns as ns
