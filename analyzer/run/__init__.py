"""The run machinery every game's simulations share: jobs over blocks of games
(``driver``), where they run (``execution``: threads, or a Dask cluster through
``cluster`` and ``cluster_worker``), resumable checkpoints (``checkpoint``, ``kept``),
chunk plans (``plan``), progress bars (``progress``) and compiling kernels apart
(``compile_apart``)."""
