"""The plugin studio: what an artist needs around `build` (docs/making-plugins.md).

`catalog` lists the art and sounds a kind of plugin has, from its game's schema;
`templates` writes a plugin folder that builds at once (`prc-tools new`);
`sheet` draws a contact sheet of a folder's or database's bitmaps
(`prc-tools verify --sheet`). It sits above `plugin` and `schema`, below the
command line, and knows no game: everything comes from the schemas.
"""
