"""The plugin store: what each plugin declares, the bundled and installed plugins, their
builds and decoded pictures kept across runs, the user's choice per slot."""
