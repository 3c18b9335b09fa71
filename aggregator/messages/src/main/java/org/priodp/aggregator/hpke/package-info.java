/**
 * RFC 9180 HPKE base mode over Bouncy Castle with typed algorithm ids: the suites DAP-18 requires
 * (DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM) and DHKEM(P-256).
 */
package org.priodp.aggregator.hpke;
