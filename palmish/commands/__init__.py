"""The command line: `palmish` and its commands (README.md, "Command line")."""
