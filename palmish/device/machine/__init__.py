"""The emulated handheld itself: the system that routes events and switches apps, the
contract an app runs under, its context, and the chrome the OS draws (status bar, input area)."""
