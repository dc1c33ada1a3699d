"""Suite-wide set-up.

A shell without job control starts its background commands (``nohup .ci/run &``) with
SIGINT ignored, and every command they start inherits that, so the tests that press Ctrl-C
in a terminal or send SIGINT to a tournament would find it ignored. A handler installed
here is reset to the default by ``exec`` in each command the tests start, so those commands
see Ctrl-C as a user's terminal gives it, whatever shell started the suite.
"""
from __future__ import annotations

import signal

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
