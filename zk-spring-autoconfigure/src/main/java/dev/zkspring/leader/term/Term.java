package dev.zkspring.leader.term;

/**
 * One leadership of this instance: the latch node that led, the epoch and data version written for
 * it, and the lease session that confirmed it. Every record a leader writes is fenced by its term.
 * @param path the latch node that led
 * @param epoch the zxid of the claim's write, the fencing token
 * @param version the latch node's data version the claim wrote, checked by every fenced write
 * @param session the lease session that confirmed the claim
 */
public record Term(String path, long epoch, int version, long session) {
}
