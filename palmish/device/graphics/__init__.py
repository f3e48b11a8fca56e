"""The LCD as pixels: the framebuffer and palmish's own pixel fonts."""
