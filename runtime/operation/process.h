// What a process that runs one command tells the runs it makes.
#pragma once

namespace mkq::operation {

// The process ends when its command's operation returns (the CLI's plan
// and apply say so before they start it). A run then leaves what it built --
// the compiled policy, the live objects, the inventory -- to the exit,
// which hands the memory back at once, instead of freeing it object by
// object (a tenth of a large plan's CPU). The state store, its lock and the
// connections are still closed as usual. A process that makes run after
// run (the controller) never says it.
void process_ends_after_command();

}  // namespace mkq::operation
