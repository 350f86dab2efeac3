"""The window and its loop: one screen at a time, each with ``handle_event``, ``update`` and
``draw``; the app owns the clock.

A screen may say whether anything it shows ``changed()`` since it was last drawn: a frame with
no input (or only the pointer's motion, lighting no button) whose screen has not changed is not
drawn again (an idle window, or one a person moves the pointer over, costs little). A screen's
``draw`` may return the rectangles it drew when nothing else changed: only those are presented.
A screen calls :meth:`App.pump` between its drawing calls, so no frame holds the input back for
more than a few milliseconds. How frames reach the screen is chosen before the window opens
(:func:`choose_present`: SDL's software framebuffer where OpenGL is a software renderer).

``App.step(dt)`` runs one frame with a given frame time, so tests (and headless runs) drive the
game deterministically by posting input events and stepping; ``App.run()`` is the real loop that
measures ``dt`` with a clock at 60 frames a second and, while it waits for the next frame, polls
the input queue every 2 ms, so each event is stamped within milliseconds of when it came (the
hand is measured by when it moved, see :mod:`sliders.scenes.hand`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import pygame
from pygame._sdl2 import video as sdl_video

from sliders.core.errors import UserError
from sliders.scenes import load_screens
from sliders.scenes.background import Background
from sliders.scenes.draw import buttons_begin, buttons_keep, forget_fonts, hover_changed
from sliders.scenes.helpscreen import HelpOverlay, asks_for_help, face_of
from sliders.scenes.sound import Sounds, native_stderr_silenced

FPS = 60
POLL = 0.002
"""seconds between polls of the input queue while waiting for the next frame"""
NAP = 0.001
"""seconds each frame's wait lasts at least, even when the frame is late: the window's other
threads (its network link, a host serving from this process) get the interpreter. A thread that
only gives it up for an instant (a drawing call, a physics kernel) keeps it: Python makes the
holder let go only after a waiting thread has seen no hand-over for a whole switch interval, and
a holder that lets go and takes it straight back counts as one; so without this, a late window
held the others off for a third of a second and more (``benchmarks/window_link.py``)"""
LEAVE = 1.0
"""while the background works (the physics loading, the computers' preparation), each frame is
followed by at least this many times its own length without one: on a busy machine the frames
would otherwise take all the processor time the window gets, and the work the screen waits for
would wait for them (input is still polled every ``POLL`` s)"""
MAX_FRAME = 0.25
"""a frame longer than this (a dragged window, a stall) counts as this long"""
DEFAULT_SIZE = (1280, 800)
MIN_SIZE = (640, 420)
SOFTWARE_GL = ("llvmpipe", "softpipe", "swrast", "software rasterizer", "swiftshader", "lavapipe")
"""words in the name of an OpenGL renderer that draws on the processor (Mesa's llvmpipe, ...)"""
ACCELERATION = "SDL_FRAMEBUFFER_ACCELERATION"
"""SDL's hint: whether the window's picture goes to the screen through OpenGL (a texture) or
through the video driver's own framebuffer (on X11, a shared-memory image)"""


class Screen(Protocol):
    def handle_event(self, event: pygame.event.Event) -> None: ...
    def update(self, dt: float) -> None: ...
    def draw(self, surface: pygame.Surface) -> Sequence[pygame.Rect] | None:
        """Draw the screen; return the rectangles drawn when only those changed (None: the
        whole window)."""


SCREENS: dict[str, Callable[..., Screen]] = {}
"""the screens by name (``setup``, ``play``, ``round-end``, ``results``), filled as their
modules load: a screen names the one that follows it rather than importing it, so the screens do
not import each other in a circle. :meth:`App.go`, asked for one not loaded yet, loads them all
(:func:`sliders.scenes.load_screens`), so each screen's module works alone"""


def screen(name: str) -> Callable[[type], type]:
    """Register a screen class under ``name`` for :meth:`App.go`."""

    def register(cls: type) -> type:
        SCREENS[name] = cls
        return cls

    return register


class App:
    """The window, the current screen and the frame clock.

    ``think_budget`` is the wall time (s) a computer's search may take per frame (None: finish
    in one frame, for headless runs). ``save_path`` is where the results screen saves a game
    (None: a new file named after the date in the current directory). ``control`` is how a
    person slides a pawn (``flick`` or ``aim``, see :mod:`sliders.scenes.controls`).
    ``background``: whether the physics and the computers are prepared in a thread while the
    window draws (None: when ``think_budget`` is not None), else at once when asked for
    (:mod:`sliders.scenes.background`).

    ``clock`` is the high-resolution clock input is stamped with: ``pulled_at`` is its reading
    when the frame's events were pulled from the queue (tests give a clock of their own).
    """

    def __init__(
        self,
        size: tuple[int, int] = DEFAULT_SIZE,
        fullscreen: bool = False,
        sound: bool = True,
        think_budget: float | None = 0.008,
        save_path: str | os.PathLike[str] | None = None,
        control: str = "flick",
        background: bool | None = None,
    ) -> None:
        pygame.display.init()
        pygame.font.init()
        forget_fonts()
        self.present = choose_present()
        """how frames reach the screen (:func:`choose_present`), in words"""
        self.windowed_size = size
        self.fullscreen = False
        self.surface = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption("Sorry! Sliders")
        if fullscreen:
            self.toggle_fullscreen()
        self.sounds = Sounds(enabled=sound)
        self.think_budget = think_budget
        self.save_path = Path(save_path) if save_path else None
        self.control = control
        self.meter = "normal"
        """the aim control's meter speed (:data:`sliders.game.config.METERS`)"""
        threaded = think_budget is not None if background is None else background
        self.background = Background(threaded)
        """the work done while the window draws (the physics, the computers' preparation)"""
        self.hand = "exact"
        """the hand the setup screen offers first (:data:`sliders.game.config.HANDS`)"""
        self.hints = False
        """whether a person may ask for a hint in a game (``sliders play --hints``)"""
        self.clock: Callable[[], float] = time.perf_counter
        self.pulled_at = 0.0
        self.polls: list[float] = []
        """clock readings of this frame's polls of the queue, in order (with or without input)"""
        self.poll_began: list[float] = []
        """the clock's reading as each of ``polls`` began (it read the queue in between)"""
        self._pending: list[tuple[float, pygame.event.Event]] = []
        self.time = 0.0
        self.frames = 0
        self.draws = 0
        """frames drawn: a frame with no input whose screen says nothing ``changed`` is not"""
        self._drawn_on: pygame.Surface | None = None
        self.running = True
        self.screen: Screen | None = None
        self.help: HelpOverlay | None = None
        """the help (F1 or ?) while it is shown over the screen; the screen waits meanwhile"""
        self._under: pygame.Surface | None = None  # the screen's picture under the help

    def show(self, screen: Screen) -> None:
        """Make ``screen`` the current one from the next event on."""
        self.screen = screen

    def go(self, name: str, *args: object) -> None:
        """Show a new screen of the kind registered as ``name``, made from ``args``."""
        if name not in SCREENS:  # a program that imported only the screen it showed first
            load_screens()
        self.show(SCREENS[name](self, *args))

    def quit(self) -> None:
        self.running = False

    def poll(self) -> None:
        """Pull the queued input now and keep it, stamped with the clock, for the next frame
        (``run`` polls between frames, so input is timed to a few milliseconds, not a frame)."""
        began = self.clock()
        events = pygame.event.get()
        t = self.clock()
        self.polls.append(t)
        self.poll_began.append(began)
        self._pending += [(t, e) for e in events]

    def pump(self) -> None:
        """Poll the input if ``POLL`` seconds have passed since the last poll: a screen calls
        it between its drawing calls, so a long frame does not hold the pointer's events."""
        if not self.polls or self.clock() - self.polls[-1] >= POLL:
            self.poll()

    def step(self, dt: float, draw: bool = True) -> None:
        """One frame: handle pending input, advance ``dt`` seconds, draw (the background's
        work giving way meanwhile)."""
        with self.background.frame():
            self._step(dt, draw)

    def _step(self, dt: float, draw: bool) -> None:
        dt = min(max(dt, 0.0), MAX_FRAME)
        self.poll()
        pending, self._pending = self._pending, []
        for t, event in pending:
            self.pulled_at = t
            if event.type == pygame.QUIT:
                self.running = False
                return
            if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
                self.toggle_fullscreen()
                continue
            if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                self._resized(event)
                continue
            if self.help is not None:
                if self.help.handle_event(event):
                    self.close_help()
                continue
            if asks_for_help(event):
                self.open_help()
                continue
            if self.screen is not None:
                self.screen.handle_event(event)
            if not self.running:
                return
        self.pulled_at = self.polls[-1]
        self.time += dt
        self.frames += 1
        if self.help is None and self.screen is not None:  # the game waits while the help is read
            self.screen.update(dt)
        self.polls, self.poll_began = self.polls[-1:], self.poll_began[-1:]
        if self.help is not None:
            if draw and self.running:
                self._draw_help()
            return
        if draw and self.running and self.screen is not None:
            changed = getattr(self.screen, "changed", None)
            told = any(e.type != pygame.MOUSEMOTION for _, e in pending)  # more than motion
            if (
                told or self.surface is not self._drawn_on or changed is None or changed()
                or hover_changed()
            ):  # fmt: skip
                self._draw(self.screen)

    def _draw(self, screen: Screen) -> None:
        """Draw ``screen`` and present what it drew: the whole window, or the rectangles it
        says were all that changed."""
        buttons = buttons_begin()
        rects = screen.draw(self.surface)
        if rects is None:
            pygame.display.flip()
        else:
            buttons_keep(buttons)
            if rects:
                pygame.display.update(rects)
        self._drawn_on = self.surface
        self.draws += 1

    def open_help(self) -> None:
        """Show the help over the screen: the controls and the rules of its game."""
        invites = bool(getattr(self.screen, "can_invite", False))
        self.help = HelpOverlay(face_of(self.screen), self.control, self.hints, invites)
        self._under = None

    def close_help(self) -> None:
        """Back to the screen, its picture as it was under the help."""
        self.help = None
        if self._under is not None and self._under.get_size() == self.surface.get_size():
            self.surface.blit(self._under, (0, 0))
            pygame.display.flip()
        else:
            self._drawn_on = None  # drawn whole at the next frame
        self._under = None

    def _draw_help(self) -> None:
        assert self.help is not None
        if self._under is None or self._under.get_size() != self.surface.get_size():
            if self.screen is not None:
                buttons_begin()
                self.screen.draw(self.surface)
            self._under = self.surface.copy()
        else:
            self.surface.blit(self._under, (0, 0))
        self.help.draw(self.surface)
        pygame.display.flip()
        self._drawn_on = self.surface
        self.draws += 1

    def run(self) -> int:
        """The real loop, until the window closes or a screen quits: a frame every 1/FPS s,
        input polled every ``POLL`` s in between, and a wait of at least ``NAP`` s."""
        last = due = time.perf_counter()
        while self.running:
            time.sleep(NAP)
            now = time.perf_counter()
            while now < due:
                self.poll()
                time.sleep(min(POLL, due - now))
                now = time.perf_counter()
            due = max(due + 1 / FPS, now)
            self.step(now - last)
            last = now
            if self.background.busy:  # the work the screen waits for gets its turn
                done = time.perf_counter()
                due = max(due, done + LEAVE * (done - now))
        return 0

    def close(self) -> None:
        self.sounds.close()
        forget_fonts()
        pygame.display.quit()
        pygame.font.quit()

    def toggle_fullscreen(self) -> None:
        """Full screen and back. Full screen is a borderless window the size of the desktop at
        its corner, not a video mode change: SDL's true full screen waits for a window manager
        to confirm it, and without one (a bare X display) it can hang the game."""
        if self.fullscreen:
            self.surface = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)
            self.fullscreen = False
            return
        self.windowed_size = self.surface.get_size()
        sizes = pygame.display.get_desktop_sizes() or [self.windowed_size]
        try:
            self.surface = pygame.display.set_mode(sizes[0], pygame.NOFRAME)
            _window_to_corner()
            self.fullscreen = True
        except pygame.error:
            self.surface = pygame.display.set_mode(self.windowed_size, pygame.RESIZABLE)

    def _resized(self, event: pygame.event.Event) -> None:
        if self.fullscreen:
            self.surface = pygame.display.get_surface() or self.surface
            return
        w = max(getattr(event, "w", 0) or getattr(event, "x", 0), MIN_SIZE[0])
        h = max(getattr(event, "h", 0) or getattr(event, "y", 0), MIN_SIZE[1])
        if (w, h) != self.surface.get_size():
            self.surface = pygame.display.set_mode((w, h), pygame.RESIZABLE)


_renderers: dict[str, str | None] = {}
"""the OpenGL renderer of each video driver's display, read once a process"""
_set: list[str] = []
"""the value this module gave ``SDL_FRAMEBUFFER_ACCELERATION``, if it gave one"""


def choose_present() -> str:
    """Choose how the window's frames reach the screen, before the window is made, and say it.

    SDL sends a window's picture through OpenGL (as a texture) when it can. Where OpenGL draws
    on the processor (Mesa's llvmpipe: virtual machines, remote desktops, machines without a
    GPU driver) that costs tens of milliseconds of processor time a frame at 1920x1080, on
    several threads, against under one through the X server's shared memory; so on X11 the
    OpenGL renderer is read from a hidden window and, when it is a software one, SDL is told to
    present through its own framebuffer (``SDL_FRAMEBUFFER_ACCELERATION=0``). The variable
    set by the user is left as it is.
    """
    driver = pygame.display.get_driver()
    asked = os.environ.get(ACCELERATION)
    if driver != "x11":
        return f"{driver} video driver"
    if asked is not None and asked not in _set:
        return f"x11, {ACCELERATION}={asked} as set"
    if driver not in _renderers:
        _renderers[driver] = gl_renderer()
    renderer = _renderers[driver]
    if renderer is None:
        return "x11, no OpenGL: SDL's framebuffer"
    if any(word in renderer.lower() for word in SOFTWARE_GL):
        os.environ[ACCELERATION] = "0"
        _set[:] = ["0"]
        return f"x11, OpenGL is software ({renderer}): SDL's software framebuffer"
    return f"x11, OpenGL {renderer}"


def describe_present() -> str:
    """How a window opened now would present its frames (:func:`choose_present`), or why
    there would be none; the display is started for it and stopped again."""
    try:
        with native_stderr_silenced():  # the video back ends SDL tries and rejects complain
            pygame.display.init()
    except pygame.error as exc:
        return f"no display ({exc})"
    try:
        driver = pygame.display.get_driver()
        if driver == "offscreen" and os.environ.get("SDL_VIDEODRIVER") != "offscreen":
            return "no display (is DISPLAY set?)"
        return choose_present()
    finally:
        pygame.display.quit()


GL_RENDERER = 0x1F01


def gl_renderer() -> str | None:
    """The name of the display's OpenGL renderer (``llvmpipe (LLVM 15.0.6, 256 bits)``), read
    from the context of a hidden window of its own (the display module's window is not
    touched, and the display stays up); None when there is no OpenGL or it cannot be read."""
    try:
        drivers = [d.name for d in sdl_video.get_drivers()]
        window = sdl_video.Window("sliders", size=(16, 16), hidden=True, opengl=True)
    except (pygame.error, AttributeError):
        return None
    try:
        renderer = sdl_video.Renderer(window, index=drivers.index("opengl"))
        path = ctypes.util.find_library("GL") or ctypes.util.find_library("opengl32")
        gl = ctypes.CDLL(path or "libGL.so.1")
        gl.glGetString.restype = ctypes.c_char_p
        gl.glGetString.argtypes = [ctypes.c_uint]
        name = gl.glGetString(GL_RENDERER)
        del renderer
        return name.decode(errors="replace") if name else None
    except (pygame.error, ValueError, OSError, AttributeError):
        return None
    finally:
        window.destroy()


def _window_to_corner() -> None:
    """Move the window to the desktop's top left corner (where the video driver lets it)."""
    window_class = getattr(pygame, "Window", None)
    if window_class is None:
        return
    try:
        with warnings.catch_warnings():  # pygame-ce deprecates it for surfaces, not for moving
            warnings.simplefilter("ignore", DeprecationWarning)
            window_class.from_display_module().position = (0, 0)
    except (pygame.error, AttributeError):
        pass


def open_window(
    size: tuple[int, int], *, fullscreen: bool, sound: bool, save_path: str | None
) -> App:
    """The window, or one line saying why there is none (no display: SDL would fall back to an
    invisible off-screen window and the game would run unseen)."""
    try:
        with native_stderr_silenced():  # the video back ends SDL tries and rejects complain
            pygame.display.init()
        driver = pygame.display.get_driver()
        if driver == "offscreen" and os.environ.get("SDL_VIDEODRIVER") != "offscreen":
            pygame.display.quit()
            raise UserError(
                "no display to open the window on (is DISPLAY set? "
                "SDL_VIDEODRIVER=dummy runs without one)"
            )
        return App(size, fullscreen=fullscreen, sound=sound, save_path=save_path)
    except pygame.error as exc:
        raise UserError(f"cannot open the window: {exc}") from None
