"""``dicelab serve``: a local web app over the command line's own functions.

The pages send forms; the server checks every field with the command line's rules and runs
the command line itself (``python -m analyzer ...``) in a process of its own for each
question, so the browser gets the same numbers, the same one-line messages and the same
progress as the terminal, and a question can be cancelled by ending its process. No path
on the server is read or written from a request: a sheet travels in the request and the
server writes it to a folder of its own.
"""
