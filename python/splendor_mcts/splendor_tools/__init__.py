"""The splendor-tools referee (github.com/nerdvana-ro/splendor-tools), both ways.

Its agents are programs started once per move that read the position as integers on stdin and
print one move line. ``agent`` is our engine as such an agent (``splendor-mcts
splendor-tools-agent``); ``seat`` seats any such program in our tournaments
(``splendor-tools:cmd="./bot"``). Both go through one adapter: ``board`` (the input), ``moves``
(the move line and our action ids), ``ids`` (their card, noble and colour numbering) and
``process`` (running a program under the referee's limits). docs/splendor-tools.md has the
format, the rule differences and what happens on each failure.
"""
