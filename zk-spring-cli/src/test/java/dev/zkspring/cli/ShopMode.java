package dev.zkspring.cli;

/** An application's enum, as a metadata type the check converts to. */
enum ShopMode {

	OPEN, CLOSED_FOR_MAINTENANCE

}
