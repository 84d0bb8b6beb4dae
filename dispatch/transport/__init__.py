"""Transport: the serving process and its sockets. Daphne's server, the consumers' message loop, the channel layers and
their watch, the sockets' authentication and presence, connection batches and their SQL, frames read off the event
loop, the per-process background tick and the garbage collector's policy."""
