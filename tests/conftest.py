import os
import signal

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("MPLBACKEND", "Agg")

# A suite started in the background (``cmd &`` in a script, nohup) inherits SIGINT ignored, and so
# would every command it starts; the Ctrl-C tests need the terminal's ordinary disposition.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
