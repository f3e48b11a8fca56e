"""Palm-style modal UI drawn into the framebuffer: menus, alerts, forms, help text."""

from palmish.device.ui.alert import Alert
from palmish.device.ui.form import CheckBox, Form, Label, PopupList, PushButtons
from palmish.device.ui.menubar import MenuBar
from palmish.device.ui.modal import Modal
from palmish.device.ui.number_entry import NumberEntry
from palmish.device.ui.textview import TextViewer

__all__ = [
    "Alert",
    "CheckBox",
    "Form",
    "Label",
    "MenuBar",
    "Modal",
    "NumberEntry",
    "PopupList",
    "PushButtons",
    "TextViewer",
]
