package dev.zkspring.reliability;

/**
 * An instance the campaign took away (killed, frozen, cut from every server), from the fault's first act
 * to its heal; a killed instance counts as away until its next life is ready (the checker reads that from
 * the journal), as a JVM takes seconds to start.
 */
record Outage(int instance, long fromNanos, long toNanos, boolean restarted) {
}
