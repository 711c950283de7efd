/** The runtime's ports on Redis, for instances that scale out (DESIGN §9). */
package dev.baton.redis;
