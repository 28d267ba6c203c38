"""Layer 1, inputs: assumption schema, YAML loading and merging, cross-section
rules, bundled resources and the resolution of each tier's engine inputs."""
