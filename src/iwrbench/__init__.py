"""iwrbench: can a model watch a video of someone using a website and rebuild it?"""

__version__ = "0.1.0"
