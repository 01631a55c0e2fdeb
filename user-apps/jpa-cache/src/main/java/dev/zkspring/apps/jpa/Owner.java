package dev.zkspring.apps.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** A pet owner, as in Petclinic. */
@Entity
public class Owner {

	@Id
	@GeneratedValue
	private Long id;

	private String name;

	protected Owner() {
	}

	public Owner(String name) {
		this.name = name;
	}

	public Long getId() {
		return this.id;
	}

	public String getName() {
		return this.name;
	}

}
