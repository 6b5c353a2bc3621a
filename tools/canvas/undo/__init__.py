"""The undo history: what each turn (and each outside client) changed in the project, kept with it, undone and
redone only by whoever made it. May import the canvas root's faces and the tools below `canvas/`, nothing above."""
