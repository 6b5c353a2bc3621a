"""The data the tests run on: generated worlds, the recorded STAC corpus, wheelhouses."""
