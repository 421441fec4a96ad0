// The rules lessons (/learn). The data lives in lessons.json so that a Python test
// (tests/server/test_lessons.py) can play every lesson through the referee: each
// move a learner must find is legal there, each refusal is the referee's own.
// A lesson: size, black/white setup stones, to_move, title/intro/source ({en, fr}),
// steps: {color, expect: "play" | "refused", goal: [vertices], reason (refused),
// reply ({color, vertex}, played after the learner's move), prompt, done}; then, optionally, mark ({dead:
// [vertices], prompt, done}: the learner marks those chains dead, as after two passes) and count (the
// position count's settings; count_prompt), counted with the marking.
import data from "./lessons.json";

export const LESSONS = data;
