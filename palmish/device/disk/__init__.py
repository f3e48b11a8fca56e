"""The device's files: the user's Palm databases, the data directory's lock, the checked cache
files under cache/, and where the shipped skins and bundled plugins are."""
