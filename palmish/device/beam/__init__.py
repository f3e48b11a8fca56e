"""Beam as the device shows it: the system dialogs of a beam, over whatever app runs."""
