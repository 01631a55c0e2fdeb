package dev.zkspring.apps.jpa;

import org.springframework.data.jpa.repository.JpaRepository;

/** Owners in the database. */
public interface Owners extends JpaRepository<Owner, Long> {

	long countByName(String name);

}
