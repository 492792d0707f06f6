"""The game-rules vector (int64[N_GAME_RULES]) the Clever play loops take: the round-track
bonuses of rounds 1-6 (0: none; -1: That's Pretty Clever's round-4 choice), then the
switches for the rules pages' open points, which sheet the game is played on, the rules
block's bits, the round count, (self-play) the player count and the actions every player
starts with. What a fox is worth travels in the sheet flags (``sheet.FOX_FIXED_SHIFT``)."""

RULE_WASTED_PICK = 6  # 1: a die with no legal placement may still be picked (not entered)
RULE_FORFEIT_TO_PLATTER = 7  # 1: after a roll with no usable die, the dice go to the platter
RULE_PASSIVE_DECLINE = 8  # 1: a passive player may decline a pick
RULE_TIES_SHARED = 9  # 1: tied totals share the win (no best-area tie-break)
RULE_SOLO_TIES_BY_COLOUR = 10  # 1: solo passive ties go to the platter in colour order
RULE_SHEET_FLAGS = 11  # the sheet's H_FLAGS (FLAG_* bits) for every player
RULE_GAME = 12  # the sheet: kernels.clever_base.sheet.TPC or TAC
RULE_RETURN_ON_REROLL = 13  # 1: a return may come between a roll and its re-roll (TAC 12.5)
RULE_SKIP_ROLL = 14  # 1: the active player may leave a usable roll unused (TAC section 2)
RULE_SOLO_FALLBACK = 15  # 1: the solo passive pick may take one of the other three dice
# when no platter die is usable
RULE_PLUS_AFTER_DECLINE = 16  # 1: a passive player who took no die may still use +1s
RULE_FINAL_PLUS_ALL = 17  # 1: after the game's last turn every player (not only the last
# active player) gets a +1 window
RULE_INPUT_BITS = 18  # the rules block's bits (``kernels.clever_base.rule_block``) of a solo
# game: the named rule parameters that differ from their defaults and that a solo game reads
RULE_ROUNDS = 19  # the round count in force (0: the player count's own); the play loops
# take the rounds as an argument, self-play over variants reads it here
RULE_INPUT_BITS_MULTI = 20  # the same bits for a game of 2-4 players
RULE_PLAYERS = 21  # self-play over a table of variants: the player count of the games of
# this row (0: drawn by the curriculum's shares); the play loops take it as an argument
RULE_START_REROLLS = 22  # re-rolls every player has circled before round 1 (start_rerolls)
RULE_START_PLUS = 23  # +1 actions every player has circled before round 1 (start_plus_ones)
N_GAME_RULES = 24
