"""The header both Clever score sheets start with (int64 fields at fixed indices), so the
shared turn engine can read the round, the actions, foxes and the rule flags of either
sheet. Each game's ``layout`` puts its areas from ``HEADER_LEN`` on."""

H_GAME = 0  # which sheet: TPC (That's Pretty Clever) or TAC (Twice As Clever)
H_ROUND = 1  # rounds ticked on the round track (0-based round being played)
H_ROUNDS = 2  # rounds in this game
H_FLAGS = 3  # rulings the sheet's own rules follow (FLAG_* bits; 0 = defaults)
H_REROLL_GOT = 4  # circles circled (unlocked) on the re-roll track
H_REROLL_USED = 5
H_PLUS_GOT = 6
H_PLUS_USED = 7
H_RETURN_GOT = 8  # Twice As Clever only
H_RETURN_USED = 9
H_FOXES = 10
H_LOST = 11  # bonuses lost because their area could not take them
H_PLUS_TAKEN = 12  # dice taken by +1 this round (bit mask; FLAG_PLUS_PER_ROUND)
H_BONUSES = 13  # + bonus kind: bonuses received (statistics only)
MAX_BONUS_KINDS = 11
# where the player stands in the game (``kernels.clever_base.seats``; the play loops keep them)
H_PLAYERS = H_BONUSES + MAX_BONUS_KINDS  # players in the game (0 or 1: solo)
H_SEAT = H_PLAYERS + 1  # this player's seat, 0-based
H_EVENT = H_PLAYERS + 2  # the turn of the round under way: the active player's seat (solo:
# 0 the active turn, 1 the passive turn); -1 before the round's first turn
H_LEAD = H_PLAYERS + 3  # this player's total minus the best opponent's when that turn
# began (the same for every choice of the turn: a choice's own points never move it)
HEADER_LEN = H_PLAYERS + 4
SHEET_LEN = 72  # both sheets have this length, so the engine can copy either
H_RULE_BITS = SHEET_LEN - 1  # the rules block's bits (``kernels.clever_base.rule_block``), set
# at the start of a game from the game-rules vector's ``RULE_INPUT_BITS``; no layout uses it

NATURAL_ROUNDS = (6, 6, 6, 5, 4)  # a game's rounds by player count (0 or 1: solo; section 2)
TPC, TAC = 0, 1
FLAG_EARLIEST_FIRST = 1  # bonuses of one mark resolve in the order triggered (a queue)
FLAG_KEEP_OVERFLOW = 2  # an unlock beyond the printed circles is kept, not lost
FLAG_PLUS_PER_ROUND = 16  # +1 takes each die once per round, not once per turn
FLAG_RETURN_EMPTY_POOL = 128  # a return may bring a platter die back after a pick left no
# dice in play, and the turn goes on (Twice As Clever; else the turn ends there)
FOX_FIXED_SHIFT = 16  # H_FLAGS >> FOX_FIXED_SHIFT: the points each fox is worth (fox_value;
# 0: the lowest area, the rulebook); the FLAG_* bits stay below it
