package dev.zkspring.test;

/**
 * The nested object the config and refresh tests' {@code shop} properties bind ({@code shop.owner.name},
 * {@code shop.owner.age}), one class for both so a nested binding is written once.
 */
public class ShopOwner {

	private String name = "nobody";

	private int age;

	public String getName() {
		return this.name;
	}

	public void setName(String name) {
		this.name = name;
	}

	public int getAge() {
		return this.age;
	}

	public void setAge(int age) {
		this.age = age;
	}

}
