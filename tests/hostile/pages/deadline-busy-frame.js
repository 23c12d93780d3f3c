// Added to a copy of the bundled Puzlogic (tests/hostile/test_deadlines.py): a few seconds into
// the game, its own frame's script takes the main thread for good.
setTimeout(() => { while (true) {} }, 4000);
