# WGAN-GP (Gulrajani et al.; the improved_wgan_training and pytorch-gan implementations): the critic's gradient at interpolates by autograd.grad(create_graph=True), the penalty ((|g| - 1)^2).mean(), and backward through it.
import torch
import torch.nn as nn

torch.manual_seed(0)

critic = nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
generator = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 4))
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9))
opt_g = torch.optim.Adam(generator.parameters(), lr=1e-4, betas=(0.0, 0.9))
lambda_gp = 10.0


def gradient_penalty(critic, real, fake):
    eps = torch.rand(real.size(0), 1)
    eps = eps.expand_as(real)
    interpolates = (eps * real + (1 - eps) * fake).requires_grad_()
    scores = critic(interpolates)
    gradients = torch.autograd.grad(outputs=scores.sum(), inputs=interpolates,
                                    create_graph=True, retain_graph=True)[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean(), gradients


real = torch.randn(6, 4) + 2.0
z = torch.randn(6, 2)
fake = generator(z)
gp, gradients = gradient_penalty(critic, real, fake.detach())
print(gradients.shape, gradients.requires_grad, type(gradients.grad_fn).__name__)
print(gradients.norm(2, dim=1).detach())
print(f"{gp.item():.4f}")

for step in range(2):
    opt_c.zero_grad()
    fake = generator(torch.randn(6, 2)).detach()
    gp, _ = gradient_penalty(critic, real, fake)
    loss_c = critic(fake).mean() - critic(real).mean() + lambda_gp * gp
    loss_c.backward()
    opt_c.step()
    print(f"critic {step}: loss {loss_c.item():.4f} gp {gp.item():.4f}")

# every critic parameter received a second-order contribution from the penalty
print([tuple(p.grad.shape) for p in critic.parameters()])
print(critic[2].bias.grad)
print(generator[0].weight.grad)

opt_g.zero_grad()
loss_g = -critic(generator(torch.randn(6, 2))).mean()
loss_g.backward()
opt_g.step()
print(f"generator: loss {loss_g.item():.4f}")
print(generator[2].bias.grad)
