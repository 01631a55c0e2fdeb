package dev.zkspring.apps.cli;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.zkspring.refresh.RefreshScope;

/** What the runner says, from ZooKeeper and rebound when it changes there. */
@RefreshScope
@ConfigurationProperties("greeting")
public class Greeting {

	private String text = "from application.properties";

	public String getText() {
		return this.text;
	}

	public void setText(String text) {
		this.text = text;
	}

}
