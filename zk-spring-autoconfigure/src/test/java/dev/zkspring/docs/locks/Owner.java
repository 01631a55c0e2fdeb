package dev.zkspring.docs.locks;

/** The entity of docs/locks.md's lost-update example: an owner and a count of visits, with the fence of its last write. */
class Owner {

	private final int id;

	private int visits;

	private long fence;

	Owner(int id, int visits, long fence) {
		this.id = id;
		this.visits = visits;
		this.fence = fence;
	}

	public int getId() {
		return this.id;
	}

	int getVisits() {
		return this.visits;
	}

	long getFence() {
		return this.fence;
	}

	void addVisit() {
		this.visits++;
	}

	Owner copy() {
		return new Owner(this.id, this.visits, this.fence);
	}

}
