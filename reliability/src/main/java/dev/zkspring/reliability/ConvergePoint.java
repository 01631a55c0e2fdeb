package dev.zkspring.reliability;

/**
 * A moment after which every instance the campaign has not taken away must show a version: the last good
 * document written when a burst ended, a write during a fault returned or a fault healed, with the
 * monotonic time of that moment and what it followed (for the violation's text).
 */
record ConvergePoint(int version, long nanos, String after) {
}
