package dev.zkspring.apps.jpa;

import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.zkspring.lock.ZkLock;

/** Registers an owner once per name across every instance: the lock is released after the commit. */
@Service
public class Registrations {

	private final Owners owners;

	Registrations(Owners owners) {
		this.owners = owners;
	}

	@ZkLock(key = "'owner:' + #name")
	@Transactional
	public boolean register(String name) {
		if (this.owners.countByName(name) > 0) {
			return false;
		}
		this.owners.save(new Owner(name));
		return true;
	}

	@Cacheable("owners")
	public long count(String name) {
		return this.owners.countByName(name);
	}

}
