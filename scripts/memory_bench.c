/*
 * A plain C copy of `cardtable bench memory` (Sources/CardTableCommand/MemoryBenchmark.swift):
 * the same deals (SplitMix64, the same Fisher-Yates shuffles), the same rules (RULES §3: a
 * pair is removed 1 s after it is found, a mismatch turns down after 2 s and costs a point),
 * the same match around them (a log of every accepted action with its time and actor, timers
 * run in due order, the events of each action, the record of the game that ended) and the same
 * perfect-recall player. It is what the Swift engine is measured against (docs/PERFORMANCE.md);
 * scripts/bench_memory_c.py builds it with `cc -O2` and runs both in one go.
 *
 *   cc -O2 -o /tmp/memory_bench scripts/memory_bench.c && /tmp/memory_bench [games]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
  uint64_t state;
} SplitMix64;

static uint64_t next(SplitMix64 *random) {
  random->state += 0x9E3779B97F4A7C15ULL;
  uint64_t z = random->state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static int next_below(SplitMix64 *random, int bound) {
  uint64_t range = (uint64_t)bound;
  uint64_t threshold = (0 - range) % range;
  for (;;) {
    uint64_t value = next(random);
    if (value >= threshold) return (int)(value % range);
  }
}

static void shuffle(SplitMix64 *random, uint8_t *cards, int count) {
  for (int index = count - 1; index > 0; index--) {
    int other = next_below(random, index + 1);
    if (other != index) {
      uint8_t swap = cards[index];
      cards[index] = cards[other];
      cards[other] = swap;
    }
  }
}

enum { FLIP, RESOLVE };
enum { NONE, REMOVE_MATCH, TURN_DOWN };
enum { FLIPPED, MATCHED, MISMATCHED, REMOVED, TURNED_DOWN, FINISHED };

typedef struct {
  uint8_t card, face_up, removed, matched;
} Position;

typedef struct {
  double time;
  int32_t action, card, actor;
  uint8_t automatic;
} Logged;

typedef struct {
  double due;
  int sequence;
} Timer;

typedef struct {
  int type, a, b;
} Event;

typedef struct {
  int score, moves, finished;
} Record;

typedef struct {
  Position board[52];
  int count, pairs;
  int turned[2], turned_count;
  int resolving, score, moves, flips, pairs_found;
  double clock;
  Logged *log;
  int log_count, log_capacity;
  Timer timers[4];
  int timer_count, next_sequence;
  Event events[4];
  int event_count;
  Record results[1];
  int result_count;
} Match;

static int is_over(const Match *match) {
  return match->pairs_found == match->pairs && match->resolving == NONE;
}

static void deal(Match *match, int pairs, uint64_t seed) {
  SplitMix64 random = {seed};
  uint8_t deck[52];
  for (int card = 0; card < 52; card++) deck[card] = (uint8_t)card;
  shuffle(&random, deck, 52);
  uint8_t cards[52];
  for (int index = 0; index < pairs; index++) cards[index] = cards[index + pairs] = deck[index];
  shuffle(&random, cards, 2 * pairs);
  match->count = 2 * pairs;
  match->pairs = pairs;
  for (int index = 0; index < match->count; index++)
    match->board[index] = (Position){cards[index], 0, 0, 0};
  match->turned_count = 0;
  match->resolving = NONE;
  match->score = match->moves = match->flips = match->pairs_found = 0;
  match->clock = 0;
  match->log_capacity = 32;
  match->log = malloc(sizeof(Logged) * match->log_capacity);
  match->log_count = 0;
  match->timer_count = match->next_sequence = 0;
  match->result_count = 0;
}

static void event(Match *match, int type, int a, int b) {
  match->events[match->event_count++] = (Event){type, a, b};
}

static void schedule(Match *match, double delay) {
  match->timers[match->timer_count++] = (Timer){match->clock + delay, match->next_sequence++};
}

static void log_action(Match *match, int action, int card, int actor, int automatic) {
  if (match->log_count == match->log_capacity) {
    match->log_capacity *= 2;
    match->log = realloc(match->log, sizeof(Logged) * match->log_capacity);
  }
  match->log[match->log_count++] =
      (Logged){match->clock, action, card, actor, (uint8_t)automatic};
}

static void finish(Match *match) {
  event(match, FINISHED, match->score, match->moves);
  match->results[match->result_count++] = (Record){match->score, match->moves, 1};
}

/* A tap on card `index`, checked as the rules check it; 0 when refused. */
static int flip(Match *match, int index) {
  match->event_count = 0;
  if (is_over(match) || index < 0 || index >= match->count) return 0;
  Position *position = &match->board[index];
  if (position->removed || position->matched) return 0;
  if (match->turned_count >= 2 || match->resolving != NONE || position->face_up) return 0;
  position->face_up = 1;
  match->flips++;
  match->turned[match->turned_count++] = index;
  event(match, FLIPPED, index, position->card);
  log_action(match, FLIP, index, 0, 0);
  if (match->turned_count < 2) return 1;
  int first = match->turned[0];
  match->moves++;
  if (match->board[first].card == position->card) {
    match->pairs_found++;
    event(match, MATCHED, first, index);
    match->resolving = REMOVE_MATCH;
    schedule(match, 1.0);
  } else {
    event(match, MISMATCHED, first, index);
    match->resolving = TURN_DOWN;
    match->score++;
    schedule(match, 2.0);
  }
  return 1;
}

static void resolve(Match *match) {
  match->event_count = 0;
  int first = match->turned[0], second = match->turned[1];
  if (match->resolving == REMOVE_MATCH) {
    for (int turned = 0; turned < 2; turned++) {
      match->board[match->turned[turned]].removed = 1;
      match->board[match->turned[turned]].face_up = 0;
    }
    event(match, REMOVED, first, second);
  } else {
    match->board[first].face_up = match->board[second].face_up = 0;
    event(match, TURNED_DOWN, first, second);
  }
  match->turned_count = 0;
  match->resolving = NONE;
  log_action(match, RESOLVE, -1, 1, 1);
  if (is_over(match)) finish(match);
}

/* Runs every timer due by `time`, in due order. */
static void advance(Match *match, double time) {
  for (;;) {
    int best = -1;
    for (int index = 0; index < match->timer_count; index++) {
      if (match->timers[index].due > time) continue;
      if (best < 0 || match->timers[index].due < match->timers[best].due ||
          (match->timers[index].due == match->timers[best].due &&
           match->timers[index].sequence < match->timers[best].sequence))
        best = index;
    }
    if (best < 0) break;
    Timer timer = match->timers[best];
    match->timers[best] = match->timers[--match->timer_count];
    if (timer.due > match->clock) match->clock = timer.due;
    if (match->resolving != NONE && match->turned_count == 2) resolve(match);
  }
  if (time > match->clock) match->clock = time;
}

static int next_due(const Match *match, double *due) {
  if (match->timer_count == 0) return 0;
  *due = match->timers[0].due;
  for (int index = 1; index < match->timer_count; index++)
    if (match->timers[index].due < *due) *due = match->timers[index].due;
  return 1;
}

static void must_flip(Match *match, int index) {
  if (!flip(match, index)) {
    fprintf(stderr, "a benchmark's move was refused\n");
    exit(1);
  }
}

/* The perfect-recall player of PerfectRecallPlayer.finished; returns the actions performed. */
static int play(int pairs, uint64_t seed) {
  Match match;
  deal(&match, pairs, seed);
  int seen_at[52];
  for (int card = 0; card < 52; card++) seen_at[card] = -1;
  int known[26][2], known_count = 0, next_card = 0;
  while (!is_over(&match)) {
    if (known_count > 0) {
      known_count--;
      must_flip(&match, known[known_count][0]);
      must_flip(&match, known[known_count][1]);
    } else {
      int first = next_card++;
      must_flip(&match, first);
      int card = match.board[first].card;
      if (seen_at[card] >= 0) {
        must_flip(&match, seen_at[card]);
      } else {
        seen_at[card] = first;
        int second = next_card++;
        must_flip(&match, second);
        int other = match.board[second].card;
        if (other != card) {
          if (seen_at[other] >= 0) {
            known[known_count][0] = seen_at[other];
            known[known_count][1] = second;
            known_count++;
          } else {
            seen_at[other] = second;
          }
        }
      }
    }
    double due;
    if (next_due(&match, &due)) advance(&match, due);
  }
  int actions = match.log_count;
  free(match.log);
  return actions;
}

int main(int argc, char **argv) {
  int games = argc > 1 ? atoi(argv[1]) : 5000;
  const char *names[] = {"easy", "medium", "hard"};
  const int pairs[] = {6, 12, 16};
  for (int difficulty = 0; difficulty < 3; difficulty++) {
    struct timespec start, end;
    long actions = 0;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int seed = 0; seed < games; seed++) actions += play(pairs[difficulty], (uint64_t)seed);
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) * 1e-9;
    printf("c memory %s: %.1f games/s, %.1f ns/action (%d games, %ld actions)\n",
           names[difficulty], games / seconds, seconds * 1e9 / (double)actions, games, actions);
  }
  return 0;
}
