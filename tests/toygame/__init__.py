"""A toy fourth game, Lamps, that proves a game needs only its own package: it is
registered through its descriptor alone (palmish.games.register), launched,
played by an event script and given a plugin that prc_tools builds from
plugins/toy-lamps. docs/architecture.md, "Adding a game", walks through it."""
