"""Hand histories: reading and writing the PHH format (see :mod:`sevenstud.history.phh`)."""
