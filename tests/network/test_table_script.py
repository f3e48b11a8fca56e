"""The table's kinds in event scripts (`net PEER LINE`, `menu COMMAND`): a
joiner's device shows a table message in the sender's corner and its log,
asks about a rematch, and sends its own message from Game > Table Message...."""

from __future__ import annotations

from pathlib import Path

from palmish.device.display import ConfigName
from palmish.device.scripting.eventscript import parse_script, run_script
from palmish.device.ui.alert import Alert
from palmish.network.session import talk
from palmish.network.session.records import Record
from palmish.pachisi.app import PachisiApp
from palmish.pachisi.net.seats import JoinSeat
from tests.game_devices import start_device

SCRIPT = """\
net 0 {"t":"welcome","v":2,"app":"pachisi","name":"Kitchen","seat":1,"dice":"%s","table":1}
net 0 {"t":"game","dice":"cowrie","players":[{"name":"Ann","computer":false},\
{"name":"Bob","computer":false}],"steps":["T6","M0"]}
net 0 {"t":"said","seat":0,"name":"Ann","msg":"good-luck"}
menu say
key right
key right
key right
char enter
""".replace("\\\n", "") % ("ab" * 32)

PROPOSAL = '{"t":"rematch","state":"open","by":0,"answers":["yes","wait"],"left_s":60}'


def test_a_script_shows_a_message_and_sends_one(built_plugins: Path, tmp_path: Path) -> None:
    app = PachisiApp()
    device = start_device(app, "pachisi", built_plugins, ConfigName("square"), tmp_path)
    sent: list[Record] = []
    app.net = JoinSeat(sent.append)
    run_script(device, parse_script(SCRIPT))
    assert app.scene.away == {0: "Good luck!"}  # Ann's corner: Square has no log
    assert "Ann: Good luck!" in app.network_lines()
    assert sent == [talk.Say("well-played")]
    run_script(device, parse_script(f"net 0 {PROPOSAL}"))
    asked = device.modals[-1]
    assert isinstance(asked, Alert)
    assert asked.message.startswith("Ann proposes a rematch. Play again at this table?")
    run_script(device, parse_script(f"net 0 {PROPOSAL}"))  # told again: asked once
    assert device.modals == (asked,)
