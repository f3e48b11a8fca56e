"""Beam Receive, as a Palm's Preferences had it (docs/network.md, "Beam"):
on or off in the launcher's Preferences, and a screen that shows this
handheld's name, address and code, with the handhelds paired to it and a way
to forget them; its Code button asks the rendezvous for an internet code to
read out (docs/network.md, "Across the internet"), shown there from then on.
The setting is the launcher's preference `beam_receive`; the window's beam
service reads it at start and listens while it is on."""

from __future__ import annotations

from collections.abc import Callable

from palmish.boardgame.dialogs import form_result
from palmish.device.beam.beaming import BeamService, escaped
from palmish.device.machine.app import AppContext
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import CheckBox, Form, PopupList
from palmish.device.ui.question import KeyAlert
from palmish.device.ui.result import pressed

PREF = "beam_receive"
TITLE = "Beam Receive"
EVERY = "Every handheld"  # the first choice of Forget's list
NEEDS_WINDOW = ("Beam Receive works in the window (palmish), or from a terminal with "
                "palmish receive.")


def receive_on(ctx: AppContext) -> bool:
    return ctx.load_prefs().get(PREF) is True


def open_preferences(ctx: AppContext) -> None:
    """Options > Preferences: Beam Receive on or off."""
    form = Form("Preferences", (CheckBox("beam", TITLE, receive_on(ctx)),))

    def closed(raw: object) -> None:
        result = form_result(raw)
        if result.button == "OK":
            on = result.flag("beam", False)
            if on != receive_on(ctx):
                switch(ctx, on)

    ctx.open_modal(form, closed)


def switch(ctx: AppContext, on: bool, then: Callable[[], None] | None = None) -> None:
    """Turn Beam Receive on or off: kept in the preferences, told to the service."""
    beams = ctx.beam()
    problem = beams.set_receiving(on) if beams is not None else None
    if problem is not None:
        ctx.open_modal(Alert(TITLE, f"Cannot receive: {escaped(problem, 160)}",
                             icon="error"), None)
        return
    prefs = ctx.load_prefs()
    prefs[PREF] = on
    ctx.save_prefs(prefs)
    if then is not None:
        then()


def screen_text(on: bool, beams: BeamService | None) -> str:
    """What the Beam Receive screen says."""
    if not on:
        return "Beam Receive is off: nothing can be beamed to this handheld."
    if beams is None:
        return "Beam Receive is on. " + NEEDS_WINDOW
    here = beams.receiving()
    if here is None:
        return "Beam Receive is on, but this handheld is not listening."
    try:
        paired = ", ".join(escaped(name, 24) for name in beams.paired()) or "none"
    except ValueError as err:  # the file is damaged: Forget clears it
        paired = f"unreadable ({escaped(str(err), 80)}); Forget clears it"
    lines = [f"Name: {escaped(here.name, 32)}", f"Address: {escaped(here.address, 48)}",
             f"Code: {here.code}", f"Paired: {paired}"]
    if here.fingerprint:  # for a sender's person to compare with what it shows
        lines.insert(3, f"Key: {here.fingerprint}")
    if here.internet:  # across the internet: the sender types it under By code...
        lines.insert(3, f"Internet code: {here.internet}")
    return "\n".join(lines)


def open_screen(ctx: AppContext) -> None:
    """Options > Beam Receive: this handheld as a sender must name it, and its
    paired handhelds; turn receiving on or off, forget the pairs."""
    beams = ctx.beam()
    on = receive_on(ctx)
    here = beams.receiving() if beams is not None and on else None
    by_code = here is not None and not here.internet
    buttons = ("Done", "Off" if on else "On", "Forget", *(("Code",) if by_code else ()))
    alert = Alert(TITLE, screen_text(on, beams), buttons, icon="info")

    def closed(result: object) -> None:
        if pressed(result) == buttons[1]:  # On or Off
            switch(ctx, not on, lambda: open_screen(ctx))
        elif pressed(result) == "Forget":
            forget(ctx, lambda: open_screen(ctx))
        elif pressed(result) == "Code" and beams is not None:
            problem = beams.receive_by_code()  # the code comes as a line of its own
            if problem is not None:
                ctx.open_modal(Alert(TITLE, f"Cannot take beams by code: "
                                     f"{escaped(problem, 160)}", icon="error"), None)

    ctx.open_modal(alert, closed)


def forget(ctx: AppContext, then: Callable[[], None]) -> None:
    """Forget paired handhelds: the one there is, after a confirmation; one of several,
    or all of them, picked in a list; all of them when the file is damaged (that
    clears it). Each one forgotten must type this handheld's code again."""
    beams = ctx.beam()
    try:
        names = list(dict.fromkeys(beams.paired())) if beams is not None else []
    except ValueError:
        names = None  # a damaged file: forgetting every pair clears it
    if beams is None or names == []:
        ctx.open_modal(Alert(TITLE, "No handheld is paired with this one.", icon="info"),
                       lambda _r: then())
        return

    def forgotten(name: str | None) -> None:
        beams.forget(name)
        then()

    if names is not None and len(names) > 1:
        choices = (EVERY, *(escaped(name, 24) for name in names))
        form = Form(TITLE, (PopupList("who", "Forget", choices, 0),), ("Forget", "Cancel"))

        def picked(raw: object) -> None:
            result = form_result(raw)
            index = result.selected("who", len(choices))
            if result.button == "Forget" and index is not None:
                forgotten(names[index - 1] if index else None)
            else:
                then()

        ctx.open_modal(form, picked)
        return
    question = ("Forget every paired handheld? Each must type this handheld's code again."
                if names is None else
                f"Forget {escaped(names[0], 24)}? It must type this handheld's code again.")
    only = None if names is None else names[0]
    ctx.open_modal(KeyAlert(TITLE, question, ("Forget", "Cancel"), icon="confirm"),
                   lambda result: forgotten(only) if pressed(result) == "Forget" else then())
